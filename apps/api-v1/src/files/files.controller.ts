import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Op } from '@workcell/auth-kit';
import {
  archiveFile,
  completeFileUpload,
  createFileDownloadIntent,
  createFileUploadIntent,
  downloadIntentView,
  type DownloadIntentView,
  getFile,
  invoke,
  listFiles,
  type ProcedureContext,
  restoreFile,
  updateFile,
  uploadIntentView,
  type UploadIntentView,
} from '@workcell/domain';
import { Input, list, Operation, type OperationInput, PROCEDURE_CONTEXT, single, versioned } from '@workcell/http';

type Id = { id: string };

/**
 * Files (scopes files:*): metadata and lifecycle, and the intents of private transfers, whose URLs are derived
 * when answering (a replay answers the same capability without it ever being stored). The local driver's transfer
 * routes themselves are outside the registry (file-transfers.ts).
 */
@Controller()
export class FilesController {
  constructor(@Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext) {}

  @Operation('listFiles')
  async listFiles(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listFiles, op, { ...input.query });
    return list(page.items, page, request);
  }

  @Operation('getFile')
  async getFile(@Op() op: Op, @Input() input: OperationInput<Id>, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(getFile, op, { id: input.path.id }));
  }

  @Operation('updateFile')
  async updateFile(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(updateFile, op, { ...(input.body as object), id: input.path.id }));
  }

  @Operation('archiveFile')
  async archiveFile(@Op() op: Op, @Input() input: OperationInput<Id>): Promise<void> {
    await invoke(archiveFile, op, { id: input.path.id });
  }

  @Operation('restoreFile')
  async restoreFile(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(restoreFile, op, { id: input.path.id }));
  }

  @Operation('createFileUploadIntent')
  async createFileUploadIntent(@Op() op: Op, @Input() input: OperationInput, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply): Promise<{ data: UploadIntentView }> {
    const intent = await invoke(createFileUploadIntent, op, { ...(input.body as object) });
    reply.header('location', `/v1/files/${intent.fileId}`);
    reply.header('cache-control', 'private, no-store');
    return single(await uploadIntentView(this.ctx, intent));
  }

  @Operation('completeFileUpload')
  async completeFileUpload(@Op() op: Op, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(completeFileUpload, op, { id: input.path.id }));
  }

  @Operation('createFileDownloadIntent')
  async createFileDownloadIntent(
    @Op() op: Op,
    @Input() input: OperationInput<Id>,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<{ data: DownloadIntentView }> {
    const intent = await invoke(createFileDownloadIntent, op, { id: input.path.id });
    reply.header('cache-control', 'private, no-store');
    return single(await downloadIntentView(this.ctx, intent));
  }
}
