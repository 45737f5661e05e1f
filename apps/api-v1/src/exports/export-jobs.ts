import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { AppConfig } from '@workcell/config';
import { APP_CONFIG } from '@workcell/http';
import { type JobData, JobQueues } from '@workcell/jobs';

/** The API's producer of export jobs (a BullMQ connection opened on first use, closed on shutdown). */
@Injectable()
export class ExportJobs implements OnApplicationShutdown {
  private readonly queues: JobQueues;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.queues = new JobQueues(config);
  }

  async enqueueExport(data: JobData<'exports.run'>): Promise<void> {
    await this.queues.enqueue('exports.run', data);
  }

  async onApplicationShutdown() {
    await this.queues.close();
  }
}
