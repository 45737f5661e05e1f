import { Controller, Inject, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  archiveCallNote,
  createCallNote,
  createContact,
  getCallNote,
  getContact,
  getContactGroup,
  invoke,
  listCallNotes,
  listContactGroups,
  listContacts,
  type ProcedureContext,
  requireTokenMember,
  updateContact,
} from '@workcell/domain';
import { Input, LegacyOperation, type OperationInput, PROCEDURE_CONTEXT } from '@workcell/http';
import { type Acting, V0Acting } from '../legacy/acting.js';
import { bodyAliasId, currentResource, lastWriterWins, legacyPage, pick, seekOf, toLegacy } from '../legacy/resources.js';

type Page = { page?: number; limit?: number };
const CONTACT = ['kind', 'name', 'email', 'phone', 'organizationId', 'contactGroupIds', 'address'];
const CALL_NOTE = ['contactId', 'content', 'occurredAt'];
const since = (cursor: string | undefined) => (cursor === undefined ? {} : { cursor });

/** v0 contacts, contact groups (reads; writes are unavailable) and call notes over the v1 procedures. */
@Controller()
export class ContactsController {
  constructor(@Inject(PROCEDURE_CONTEXT) private readonly ctx: ProcedureContext) {}

  @LegacyOperation('legacyGetContacts')
  async listContacts(@V0Acting() acting: Acting, @Input() input: OperationInput<Record<string, string>, Page>) {
    return (
      await legacyPage(
        this.ctx,
        input.query,
        (cursor, limit) => invoke(listContacts, this.ctx, { auth: acting.auth, limit, ...since(cursor) }),
        seekOf(this.ctx, acting.auth.workspaceId, 'contacts', 'listContacts', { kind: null, contactGroupId: null, q: null }),
      )
    ).map(toLegacy);
  }

  @LegacyOperation('legacyGetContactsById')
  async getContact(@V0Acting() acting: Acting, @Input() input: OperationInput<{ _id: string }>) {
    return toLegacy(await currentResource(this.ctx, getContact, acting.auth, input.path._id, 'contact'));
  }

  @LegacyOperation('legacyPostContacts')
  async createContact(@V0Acting() acting: Acting, @Input() input: OperationInput, @Res({ passthrough: true }) reply: FastifyReply) {
    const { resource } = await invoke(createContact, this.ctx, { auth: acting.auth, requestId: acting.requestId, ...pick(input.body, CONTACT) });
    void reply.status(201);
    return toLegacy(resource);
  }

  @LegacyOperation('legacyPutContactsById')
  async updateContact(@V0Acting() acting: Acting, @Input() input: OperationInput<{ _id: string }>) {
    return this.writeContact(acting, input.path._id, input.body);
  }

  @LegacyOperation('legacyPutContacts')
  async updateContactByBody(@V0Acting() acting: Acting, @Input() input: OperationInput) {
    return this.writeContact(acting, bodyAliasId(input.body), input.body);
  }

  private async writeContact(acting: Acting, id: string, body: unknown) {
    const { resource } = await lastWriterWins(id, async () => {
      const current = await currentResource(this.ctx, getContact, acting.auth, id, 'contact');
      return invoke(updateContact, this.ctx, { auth: acting.auth, requestId: acting.requestId, id: current.id, expectedVersion: current.version, ...pick(body, CONTACT) });
    });
    return toLegacy(resource);
  }

  @LegacyOperation('legacyGetContactgroups')
  async listGroups(@V0Acting() acting: Acting, @Input() input: OperationInput<Record<string, string>, Page>) {
    return (
      await legacyPage(
        this.ctx,
        input.query,
        (cursor, limit) => invoke(listContactGroups, this.ctx, { auth: acting.auth, limit, ...since(cursor) }),
        seekOf(this.ctx, acting.auth.workspaceId, 'contactGroups', 'listContactGroups', { parentId: null }),
      )
    ).map(toLegacy);
  }

  @LegacyOperation('legacyGetContactgroupsById')
  async getGroup(@V0Acting() acting: Acting, @Input() input: OperationInput<{ _id: string }>) {
    return toLegacy(await currentResource(this.ctx, getContactGroup, acting.auth, input.path._id, 'contact group'));
  }

  @LegacyOperation('legacyGetCallnotes')
  async listCallNotes(@V0Acting() acting: Acting, @Input() input: OperationInput<Record<string, string>, Page>) {
    return (
      await legacyPage(
        this.ctx,
        input.query,
        (cursor, limit) => invoke(listCallNotes, this.ctx, { auth: acting.auth, limit, ...since(cursor) }),
        seekOf(this.ctx, acting.auth.workspaceId, 'callNotes', 'listCallNotes', { contactId: null }),
      )
    ).map(toLegacy);
  }

  @LegacyOperation('legacyGetCallnotesById')
  async getCallNote(@V0Acting() acting: Acting, @Input() input: OperationInput<{ _id: string }>) {
    return toLegacy(await currentResource(this.ctx, getCallNote, acting.auth, input.path._id, 'call note'));
  }

  @LegacyOperation('legacyPostCallnotes')
  async createCallNote(@V0Acting() acting: Acting, @Input() input: OperationInput, @Res({ passthrough: true }) reply: FastifyReply) {
    requireTokenMember(acting, 'writing a call note');
    const { resource } = await invoke(createCallNote, this.ctx, { auth: acting.auth, requestId: acting.requestId, ...pick(input.body, CALL_NOTE) });
    void reply.status(201);
    return toLegacy(resource);
  }

  @LegacyOperation('legacyDeleteCallnotesById')
  async deleteCallNote(@V0Acting() acting: Acting, @Input() input: OperationInput<{ _id: string }>, @Res({ passthrough: true }) reply: FastifyReply) {
    await this.archiveCallNote(acting, input.path._id);
    void reply.status(204);
  }

  @LegacyOperation('legacyDeleteCallnotes')
  async deleteCallNoteByBody(@V0Acting() acting: Acting, @Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    await this.archiveCallNote(acting, bodyAliasId(request.body));
    void reply.status(204);
  }

  private async archiveCallNote(acting: Acting, id: string): Promise<void> {
    const current = await currentResource(this.ctx, getCallNote, acting.auth, id, 'call note');
    await invoke(archiveCallNote, this.ctx, { auth: acting.auth, requestId: acting.requestId, id: current.id });
  }
}
