import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { Body, HttpCode, Req, Res, StreamableFile, UseInterceptors } from '@nestjs/common';
import type { ModulesContainer } from '@nestjs/core';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';
import type { Database } from '@workcell/db';
import { testConfig } from '@workcell/testing';
import { captureLogger } from './testing.js';
import { type CompileOptions, mountOperation, type OperationHandler, operationHandlers } from './operation-routes.js';
import { LegacyOperation, Operation, operationParameter, registryRoutes } from './operations.js';
import { ProtocolError } from './problems.js';
import { v0Errors, v1Errors } from './protocols.js';
import { Input, type OperationInput } from './validation.js';

const Op = (): ParameterDecorator => operationParameter('op');
const route = (generation: 'v0' | 'v1', operationId: string) => registryRoutes(generation).find((r) => r.operationId === operationId)!;
const handlerOf = (instance: object, methodName: string, operationId: string): OperationHandler => ({ instance, methodName, operationId });
const modules = (...instances: object[]) => new Map([['module', { controllers: new Map(instances.map((instance, i) => [String(i), { instance }])) }]]) as unknown as ModulesContainer;

/** A gate that records what it was asked and lets `refuse` decide; an admitted request acts as `caller`. */
function recordingGate(refuse?: ProtocolError) {
  const entered: string[] = [];
  return {
    entered,
    gate: {
      async enter(operationId: string, request: FastifyRequest & { operation?: unknown }) {
        entered.push(operationId);
        if (refuse) throw refuse;
        request.operation = { caller: 'member-1' };
      },
    },
  };
}

function compileOptions(generation: 'v0' | 'v1', gate: CompileOptions['gate'], logger = captureLogger(testConfig()).logger): CompileOptions {
  return { generation, gate, database: {} as Database, config: testConfig(), renderer: generation === 'v1' ? v1Errors : v0Errors, logger };
}

class TaskHandlers {
  readonly calls: unknown[] = [];

  @Operation('getTask')
  getTask(@Op() op: unknown, @Input() input: OperationInput<{ id: string }>, @Res({ passthrough: true }) reply: FastifyReply) {
    this.calls.push(op);
    reply.header('etag', '"7"');
    return { data: { id: input.path.id, caller: (op as { caller: string }).caller } };
  }

  @Operation('getApiVersion')
  sendsItself(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    void reply.header('content-type', 'text/plain').send(`sent by the handler for ${request.method}`);
    return { ignored: true };
  }

  readonly streams: Readable[] = [];

  @Operation('downloadExport')
  download() {
    const stream = Readable.from([Buffer.from('a,b\n1,2\n')]);
    this.streams.push(stream);
    return new StreamableFile(stream);
  }
}

describe('the compiled request path (operation-routes)', () => {
  it('runs the gate, validates, sets the registry status and passes @Op, @Input and the reply to the handler', async () => {
    const fastify = Fastify();
    const { gate, entered } = recordingGate();
    const handlers = new TaskHandlers();
    mountOperation(fastify, route('v1', 'getTask'), handlerOf(handlers, 'getTask', 'getTask'), compileOptions('v1', gate));
    const id = randomUUID();
    const ok = await fastify.inject({ method: 'GET', url: `/v1/tasks/${id}` });
    assert.equal(ok.statusCode, 200);
    assert.deepEqual(ok.json(), { data: { id, caller: 'member-1' } });
    assert.equal(ok.headers['etag'], '"7"');
    assert.deepEqual(entered, ['getTask']);
    // A parameter the operation does not accept: the gate ran, the handler did not, the error document says why.
    const refused = await fastify.inject({ method: 'GET', url: `/v1/tasks/${id}?unexpected=1` });
    assert.equal(refused.statusCode, 400);
    assert.equal(refused.json().errors[0].code, 'validation_failed');
    assert.equal(refused.json().errors[0].source.parameter, 'unexpected');
    assert.equal(handlers.calls.length, 1);
    assert.deepEqual(entered, ['getTask', 'getTask']);
    await fastify.close();
  });

  it('answers what the gate refuses in the error document, before validation and without the handler', async () => {
    const fastify = Fastify();
    const { gate } = recordingGate(new ProtocolError(401, 'unauthenticated', 'a valid bearer credential is required'));
    const handlers = new TaskHandlers();
    mountOperation(fastify, route('v1', 'getTask'), handlerOf(handlers, 'getTask', 'getTask'), compileOptions('v1', gate));
    const refused = await fastify.inject({ method: 'GET', url: '/v1/tasks/not-an-id?unexpected=1' });
    assert.equal(refused.statusCode, 401);
    assert.equal(refused.json().errors[0].code, 'unauthenticated');
    assert.equal(handlers.calls.length, 0);
    await fastify.close();
  });

  it('answers 501 after the gate for an operation without a handler, and logs no cause for it', async () => {
    const fastify = Fastify();
    const { gate, entered } = recordingGate();
    const capture = captureLogger(testConfig());
    mountOperation(fastify, route('v1', 'listTasks'), undefined, compileOptions('v1', gate, capture.logger));
    const answer = await fastify.inject({ method: 'GET', url: '/v1/tasks' });
    assert.equal(answer.statusCode, 501);
    assert.equal(answer.json().errors[0].code, 'not_implemented');
    assert.deepEqual(entered, ['listTasks']);
    assert.deepEqual(capture.lines(), []);
    await fastify.close();
  });

  it('answers the unexpected failure of a handler 500 without its cause, and logs the cause with the request id', async () => {
    class Failing {
      @Operation('getApiVersion')
      version(): never {
        throw new Error('the secret cause');
      }
    }
    const fastify = Fastify();
    const capture = captureLogger(testConfig());
    mountOperation(fastify, route('v1', 'getApiVersion'), handlerOf(new Failing(), 'version', 'getApiVersion'), compileOptions('v1', recordingGate().gate, capture.logger));
    const answer = await fastify.inject({ method: 'GET', url: '/v1' });
    assert.equal(answer.statusCode, 500);
    assert.equal(answer.json().errors[0].code, 'internal_error');
    assert.doesNotMatch(answer.body, /secret cause/);
    capture.logger.flush();
    const logged = capture.lines().filter((line) => line['msg'] === 'request failed');
    assert.equal(logged.length, 1);
    assert.match(JSON.stringify(logged[0]), /the secret cause/);
    assert.equal(logged[0]!['requestId'], answer.json().meta.requestId);
    await fastify.close();
  });

  it('lets a handler that takes the reply without passthrough send its own answer', async () => {
    const fastify = Fastify();
    mountOperation(fastify, route('v1', 'getApiVersion'), handlerOf(new TaskHandlers(), 'sendsItself', 'getApiVersion'), compileOptions('v1', recordingGate().gate));
    const answer = await fastify.inject({ method: 'GET', url: '/v1' });
    assert.equal(answer.statusCode, 200);
    assert.equal(answer.body, 'sent by the handler for GET');
    await fastify.close();
  });

  it('streams a file, and for HEAD lets go of the source without reading it', async () => {
    const fastify = Fastify();
    const handlers = new TaskHandlers();
    mountOperation(fastify, route('v1', 'downloadExport'), handlerOf(handlers, 'download', 'downloadExport'), compileOptions('v1', recordingGate().gate));
    const id = randomUUID();
    const get = await fastify.inject({ method: 'GET', url: `/v1/exports/${id}/download` });
    assert.equal(get.statusCode, 200);
    assert.equal(get.body, 'a,b\n1,2\n');
    const head = await fastify.inject({ method: 'HEAD', url: `/v1/exports/${id}/download` });
    assert.equal(head.statusCode, 200);
    assert.equal(head.body, '');
    assert.equal(handlers.streams[1]?.destroyed, true);
    assert.equal(handlers.streams[1]?.readableDidRead, false);
    await fastify.close();
  });

  it('refuses an unavailable v0 operation after the gate, with its v1 successor, and needs no handler for it', async () => {
    const fastify = Fastify();
    const { gate, entered } = recordingGate();
    mountOperation(fastify, route('v0', 'legacyPostContactgroups'), undefined, compileOptions('v0', gate));
    const answer = await fastify.inject({ method: 'POST', url: '/contactgroups', payload: { anything: true } });
    assert.equal(answer.statusCode, 403);
    assert.equal(answer.json().error.code, 'forbidden');
    assert.match(answer.json().error.message, /unavailable in v0; use v1 createContactGroup/);
    assert.match(String(answer.headers['deprecation']), /^@\d+$/);
    assert.match(String(answer.headers['link']), /rel="successor-version"/);
    assert.deepEqual(entered, ['legacyPostContactgroups']);
    await fastify.close();
  });

  it('refuses at start-up what it would not apply: Nest route decorators, other parameter decorators, undecorated parameters', () => {
    class Unsupported {
      @Operation('getTask')
      @HttpCode(201)
      status() {
        return {};
      }

      @Operation('getTask')
      @UseInterceptors(class {})
      intercepted() {
        return {};
      }

      @Operation('createTask')
      body(@Body() body: unknown) {
        return body;
      }

      @Operation('getTask')
      bare(@Op() op: unknown, input: unknown) {
        return { op, input };
      }
    }
    const options = compileOptions('v1', recordingGate().gate);
    const mount = (methodName: string, operationId: string) => mountOperation(Fastify(), route('v1', operationId), handlerOf(new Unsupported(), methodName, operationId), options);
    assert.throws(() => mount('status', 'getTask'), /__httpCode__ are not applied/);
    assert.throws(() => mount('intercepted', 'getTask'), /__interceptors__ are not applied/);
    assert.throws(() => mount('body', 'createTask'), /parameter 0 has a decorator the compiled request path does not pass/);
    assert.throws(() => mount('bare', 'getTask'), /parameter 1 has no decorator/);
  });

  it('finds every operation handler the container built, and refuses two for one operation', () => {
    class First {
      @LegacyOperation('legacyGetTeams')
      teams() {
        return [];
      }
    }
    class Second {
      @LegacyOperation('legacyGetTeams')
      alsoTeams() {
        return [];
      }
    }
    assert.deepEqual(
      operationHandlers(modules(new First())).map((h) => `${h.operationId} ${h.methodName}`),
      ['legacyGetTeams teams'],
    );
    assert.throws(() => operationHandlers(modules(new First(), new Second())), /legacyGetTeams has two handlers: First.teams and Second.alsoTeams/);
  });
});
