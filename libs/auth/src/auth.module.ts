import { type DynamicModule, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import type { AppConfig } from '@workcell/config';
import type { Operation } from '@workcell/domain';
import { APP_CONFIG, type ApiGeneration, OPERATION_GATE, operationParameter } from '@workcell/http';
import { AUTH_CLIENT, type AuthClient, AUTHENTICATOR, createAuthClient, createAuthenticator, CredentialRecheck, OperationGuard, RegistryOperationGate } from './authentication.js';

/** Authentication and authorization for an API app: every route is guarded by its registry operation. */
@Module({})
export class ApiAuthModule {
  static forApi(generation: ApiGeneration): DynamicModule {
    return {
      module: ApiAuthModule,
      providers: [
        { provide: 'API_GENERATION', useValue: generation },
        {
          provide: AUTH_CLIENT,
          inject: [APP_CONFIG],
          useFactory: (config: AppConfig): AuthClient => createAuthClient(config),
        },
        { provide: AUTHENTICATOR, useFactory: createAuthenticator },
        // The same gate guards every handler and every operation the app does not implement yet (501).
        { provide: OPERATION_GATE, useClass: RegistryOperationGate },
        { provide: APP_GUARD, useClass: OperationGuard },
        CredentialRecheck,
      ],
      exports: [AUTH_CLIENT, OPERATION_GATE, CredentialRecheck],
    };
  }
}

/**
 * The operation of this authenticated request (issue 28): the caller, the request id and the context every procedure
 * runs with, built once by the operation gate. Handlers pass it to `invoke` as it is.
 */
export const Op = (): ParameterDecorator => operationParameter('op');
/** The type of `@Op()`'s value: `@Op() op: Op`. */
export type Op = Operation;
