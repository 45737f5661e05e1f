import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { AppConfig } from '@workcell/config';
import { APP_CONFIG } from '@workcell/http';
import { type JobData, JobQueues } from '@workcell/jobs';

/**
 * The API's producer side of the job catalog (one BullMQ connection per queue, opened on first use), closed
 * on shutdown. `enqueue` itself fails within the request's dependency budget (libs/jobs), so a request never
 * hangs on an unreachable Redis.
 */
@Injectable()
export class LifecycleJobs implements OnApplicationShutdown {
  private readonly queues: JobQueues;

  constructor(@Inject(APP_CONFIG) config: AppConfig) {
    this.queues = new JobQueues(config);
  }

  async enqueueLifecycle(data: JobData<'projects.lifecycle'>): Promise<void> {
    await this.queues.enqueue('projects.lifecycle', data);
  }

  async onApplicationShutdown() {
    await this.queues.close();
  }
}
