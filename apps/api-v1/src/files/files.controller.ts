import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { V1Auth } from '@workcell/auth-kit';
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
  type V1AuthContext,
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
  async listFiles(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput, @Req() request: FastifyRequest) {
    const page = await invoke(listFiles, this.ctx, { auth, ...input.query });
    return list(page.items, page, request);
  }

  @Operation('getFile')
  async getFile(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(getFile, this.ctx, { auth, id: input.path.id }));
  }

  @Operation('updateFile')
  async updateFile(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(updateFile, this.ctx, { ...(input.body as object), id: input.path.id, auth, requestId: request.id }));
  }

  @Operation('archiveFile')
  async archiveFile(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest): Promise<void> {
    await invoke(archiveFile, this.ctx, { id: input.path.id, auth, requestId: request.id });
  }

  @Operation('restoreFile')
  async restoreFile(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(restoreFile, this.ctx, { id: input.path.id, auth, requestId: request.id }));
  }

  @Operation('createFileUploadIntent')
  async createFileUploadIntent(
    @V1Auth() auth: V1AuthContext,
    @Input() input: OperationInput,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<{ data: UploadIntentView }> {
    const intent = await invoke(createFileUploadIntent, this.ctx, { ...(input.body as object), auth, requestId: request.id });
    reply.header('location', `/v1/files/${intent.fileId}`);
    reply.header('cache-control', 'private, no-store');
    return single(await uploadIntentView(this.ctx, intent));
  }

  @Operation('completeFileUpload')
  async completeFileUpload(@V1Auth() auth: V1AuthContext, @Input() input: OperationInput<Id>, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    return versioned(reply, await invoke(completeFileUpload, this.ctx, { id: input.path.id, auth, requestId: request.id }));
  }

  @Operation('createFileDownloadIntent')
  async createFileDownloadIntent(
    @V1Auth() auth: V1AuthContext,
    @Input() input: OperationInput<Id>,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<{ data: DownloadIntentView }> {
    const intent = await invoke(createFileDownloadIntent, this.ctx, { id: input.path.id, auth, requestId: request.id });
    reply.header('cache-control', 'private, no-store');
    return single(await downloadIntentView(this.ctx, intent));
  }
}
