export { type JobData, type JobDefinition, jobCatalog, type JobHandlers, type JobName, type JobRun, QUEUE_NAMES, type QueueName } from './catalog.js';
export { bullPrefix, JobQueues, JobWorkers, PermanentJobFailure, WEBHOOK_SCHEDULE, webhookScheduleDelayMs } from './jobs.js';
export { type JobShare, JobShares } from './shares.js';
