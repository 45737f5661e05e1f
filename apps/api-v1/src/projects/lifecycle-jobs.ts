import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import type { AppConfig } from '@workcell/config';
import { APP_CONFIG } from '@workcell/http';
import { type JobData, JobQueues } from '@workcell/jobs';

/**
 * The API's producer side of the job catalog (one BullMQ connection per queue, opened on first use), closed
 * on shutdown. An enqueue that does not finish within DEPENDENCY_TIMEOUT_MS is reported as failed, so a
 * request never hangs on an unreachable Redis.
 */
@Injectable()
export class LifecycleJobs implements OnApplicationShutdown {
  private readonly queues: JobQueues;

  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {
    this.queues = new JobQueues(config);
  }

  async enqueueLifecycle(data: JobData<'projects.lifecycle'>): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('enqueue timed out')), this.config.dependencyTimeoutMs);
    });
    try {
      await Promise.race([this.queues.enqueue('projects.lifecycle', data), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  async onApplicationShutdown() {
    await this.queues.close();
  }
}
