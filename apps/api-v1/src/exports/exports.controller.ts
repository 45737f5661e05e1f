import { Controller, Inject, Req, Res, StreamableFile } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { V1Auth } from '@workcell/auth-kit';
import { createExport, downloadExport, type ExportOperationView, failUnqueuedExport, getExport, invoke, listExports, type ProcedureContext, type V1AuthContext } from '@workcell/domain';
import { Input, list, LOGGER, type Logger, Operation, type OperationInput, PROCEDURE_CONTEXT, single } from '@workcell/http';
import { ExportJobs } from './export-jobs.js';

type Id = { id: string };

/**
 * Exports (issue 14): createExport answers 202 with the export as its own operation and its `Location`; the job is
 * enqueued after the request's transaction commits, and if that fails the export is marked failed (`enqueue_failed`)
 * at once. Everything is scoped to the calling credential; the download streams the stored result.
 */
@Controller()
export class ExportsController {
  constructor(
    @Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext,
    @Inject(ExportJobs) private readonly jobs: ExportJobs,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  @Operation('listExports')
  async listExports(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listExports, this.ctx, { auth, ...input.query });
    return list(page.items, page, request);
  }

  @Operation('createExport')
  async createExport(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    let operation: ExportOperationView = await invoke(createExport, this.ctx, { ...(input.body as object), auth, requestId: request.id });
    // A replayed request finds its export past `pending` possibly; enqueueing again is harmless (job id = export id).
    try {
      await this.jobs.enqueueExport({ workspaceId: auth.workspaceId, exportId: operation.id });
    } catch (error) {
      this.logger.error({ requestId: request.id, exportId: operation.id, err: (error as Error).message }, 'export job could not be enqueued');
      await failUnqueuedExport(this.ctx, auth.workspaceId, operation.id);
      operation = { ...operation, status: 'failed', error: { code: 'enqueue_failed', message: 'the export could not be queued; request it again' } };
    }
    reply.header('location', `/v1/exports/${operation.id}`);
    return single(operation);
  }

  @Operation('getExport')
  async getExport(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>) {
    return single(await invoke(getExport, this.ctx, { auth, id: input.path.id }));
  }

  @Operation('downloadExport')
  async downloadExport(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Res({ passthrough: true }) reply: FastifyReply) {
    const download = await invoke(downloadExport, this.ctx, { auth, id: input.path.id });
    reply.headers(download.headers);
    return new StreamableFile(download.body);
  }
}
