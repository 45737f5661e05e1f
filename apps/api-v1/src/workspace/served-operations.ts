import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { OPERATION_METADATA } from '@workcell/http';
import { v1Operations } from '@workcell/registry';

export interface Capability {
  readonly key: string;
  readonly enabled: boolean;
}

/**
 * Which registry operations this app serves, read from its own controllers' @Operation metadata (the same
 * metadata that mounts the routes, so the answer cannot drift from the behaviour). A capability is a registry
 * family; it is enabled when every operation of the family is served (a partly served family is not yet a
 * capability a client can rely on).
 */
@Injectable()
export class ServedOperations implements OnModuleInit {
  private served = new Set<string>();

  constructor(
    @Inject(DiscoveryService) private readonly discovery: DiscoveryService,
    @Inject(MetadataScanner) private readonly scanner: MetadataScanner,
    @Inject(Reflector) private readonly reflector: Reflector,
  ) {}

  onModuleInit(): void {
    const served = new Set<string>();
    for (const wrapper of this.discovery.getControllers()) {
      const prototype = (wrapper.metatype as { prototype?: object } | undefined)?.prototype;
      if (!prototype) continue;
      for (const name of this.scanner.getAllMethodNames(prototype)) {
        const operationId = this.reflector.get<string | undefined>(OPERATION_METADATA, (prototype as Record<string, () => unknown>)[name]!);
        if (operationId) served.add(operationId);
      }
    }
    this.served = served;
  }

  capabilities(): Capability[] {
    const families = new Map<string, boolean>();
    for (const op of v1Operations) families.set(op.family, (families.get(op.family) ?? true) && this.served.has(op.operationId));
    return [...families].map(([key, enabled]) => ({ key, enabled })).sort((a, b) => (a.key < b.key ? -1 : 1));
  }
}
