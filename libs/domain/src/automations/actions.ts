import { z } from 'zod';
import { findTask, type Db } from '@workcell/db';
import { TaskCreate, TaskUpdate } from '@workcell/registry';
import type { V1AuthContext } from '../kernel/auth-context.js';
import type { FieldIssue } from '../kernel/errors.js';
import { invoke, type Operation, type Procedure } from '../kernel/procedure.js';
import { findVisibleTarget, TARGETS, type TargetType } from '../kernel/targets.js';
import { createComment } from '../comments/create-comment.js';
import { COMMENT_BODY_MAX } from '../comments/view.js';
import { createTask } from '../tasks/create-task.js';
import { updateTask } from '../tasks/update-task.js';
import { type TaskAttributes, taskIdOf, taskNotFound, taskReferenceIssues } from '../tasks/view.js';

/** The longest a flow.delay step waits (7 days). */
export const MAX_DELAY_SECONDS = 7 * 24 * 3600;

/** What a step's action returns: nothing more to do, or a wait before the next step (flow.delay). */
export type StepOutcome = { readonly delaySeconds: number } | null;

export interface AutomationActionSpec {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly category: string;
  /** Scopes a flow using the action implies (its create, update and publish need them). */
  readonly requiredScopes: readonly string[];
  readonly input: z.ZodType;
  /**
   * Applies the step as `op`: the owner's authority, the run as the cause of its events, and `op.database` the step's
   * transaction (a Db that is one: inTransaction joins it), so the effect commits together with the run's cursor, or
   * not at all.
   */
  readonly run: (op: Operation, input: Record<string, unknown>) => Promise<StepOutcome>;
  /**
   * The ids of an input (matching `input`) that name nothing of the caller's workspace it may see, with pointers
   * into the input: the reference checks of the action's procedure, made when the flow is written (create, update,
   * publish) so a foreign or made-up id is refused then rather than failing every run. A template is no id yet: the
   * caller drops issues at template values.
   */
  readonly referenceIssues?: (tx: Db, auth: V1AuthContext, input: Record<string, unknown>) => Promise<FieldIssue[]>;
}

/** The issue of an id that names no visible task, project or contact of the workspace (null: it names one). */
async function targetIssue(tx: Db, auth: V1AuthContext, type: TargetType, id: string, pointer: string): Promise<FieldIssue | null> {
  const found = await findVisibleTarget(tx, auth, TARGETS[type].kind, id);
  return found === null ? { pointer, message: `no ${TARGETS[type].what} ${JSON.stringify(id)} in this workspace` } : null;
}

const TaskUpdateInput = z.strictObject({ taskId: z.uuid(), ...TaskUpdate.shape }).refine((v) => Object.keys(v).length > 1, 'Send at least one attribute besides taskId.');
const CommentInput = z.strictObject({ targetType: z.enum(['contacts', 'projects', 'tasks']), targetId: z.uuid(), body: z.string().min(1).max(COMMENT_BODY_MAX) });
const DelayInput = z.strictObject({ seconds: z.number().int().min(1).max(MAX_DELAY_SECONDS) });

/** An action that is one procedure, invoked with the step's input as its own (validated by it). */
const invoking =
  (procedure: Procedure<z.ZodType, unknown>) =>
  async (op: Operation, input: unknown): Promise<null> => {
    await invoke(procedure, op, input);
    return null;
  };

/**
 * The action catalog (GET /v1/automation-actions): each action calls the same domain procedure as the API, with the
 * definition owner's authority as it is at run time, so an automation can do nothing its owner could not.
 */
export const AUTOMATION_ACTIONS: readonly AutomationActionSpec[] = [
  {
    id: 'tasks.create',
    name: 'Create a task',
    description: 'Creates a task (as POST /v1/tasks).',
    category: 'tasks',
    requiredScopes: ['tasks:write'],
    input: TaskCreate,
    run: invoking(createTask),
    referenceIssues: (tx, auth, input) => taskReferenceIssues(tx, auth.workspaceId, input as TaskAttributes),
  },
  {
    id: 'tasks.update',
    name: 'Update a task',
    description: 'Changes attributes of a task (as PATCH /v1/tasks/{id}, at the revision the step reads in its own transaction).',
    category: 'tasks',
    requiredScopes: ['tasks:write'],
    input: TaskUpdateInput,
    run: async (op, input) => {
      const { taskId, ...attributes } = input as { taskId: string };
      const task = await findTask(op.database, op.auth.workspaceId, taskIdOf(taskId));
      if (task === null) throw taskNotFound();
      await invoke(updateTask, op, { ...attributes, id: taskId, expectedRevision: task.revision });
      return null;
    },
    referenceIssues: async (tx, auth, input) => {
      const { taskId, ...attributes } = input as { taskId: string };
      const task = await targetIssue(tx, auth, 'tasks', taskId, '/taskId');
      return [...(task === null ? [] : [task]), ...(await taskReferenceIssues(tx, auth.workspaceId, attributes as TaskAttributes))];
    },
  },
  {
    id: 'comments.create',
    name: 'Comment',
    description: "Writes a comment on a contact, project or task (as POST /v1/comments; the target type's read scope is checked at run time).",
    category: 'comments',
    requiredScopes: ['comments:write'],
    input: CommentInput,
    run: invoking(createComment),
    referenceIssues: async (tx, auth, input) => {
      const { targetType, targetId } = input as { targetType: string; targetId: string };
      // A templated target type leaves the kind of the id unknown until the run.
      if (!Object.hasOwn(TARGETS, targetType)) return [];
      const issue = await targetIssue(tx, auth, targetType as TargetType, targetId, '/targetId');
      return issue === null ? [] : [issue];
    },
  },
  {
    id: 'flow.delay',
    name: 'Wait',
    description: `Waits \`seconds\` (1 to ${MAX_DELAY_SECONDS}, 7 days) before the next step: the run is resumed by a delayed job, no worker sleeps.`,
    category: 'flow',
    requiredScopes: [],
    input: DelayInput,
    run: async (_op, input) => ({ delaySeconds: (input as { seconds: number }).seconds }),
  },
];

const BY_ID = new Map(AUTOMATION_ACTIONS.map((a) => [a.id, a]));

export function automationAction(id: string): AutomationActionSpec | undefined {
  return BY_ID.get(id);
}

export type AutomationActionView = {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly category: string;
  readonly requiredScopes: readonly string[];
  readonly inputSchema: Record<string, unknown>;
};

/** The catalog as GET /v1/automation-actions lists it (input schemas generated from the zod schemas). */
export const AUTOMATION_ACTION_VIEWS: readonly AutomationActionView[] = AUTOMATION_ACTIONS.map((a) => ({
  id: a.id,
  name: a.name,
  description: a.description,
  category: a.category,
  requiredScopes: a.requiredScopes,
  inputSchema: z.toJSONSchema(a.input, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>,
}));
