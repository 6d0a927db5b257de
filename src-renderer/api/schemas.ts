import { queryOptions } from '@tanstack/react-query';
import { propertyPaths, type ObjectDef, type PropertyDef, type PropertyType } from '../../src-shared/schema/types';
import type { ScopeSchemaType } from '../../src-shared/scopes';
import type { OrgClient } from './org-client';
import { queryKeys } from './query-keys';
import type { ListEnvelope } from './types';

/** One fully qualified path of a schema, as `GET /schemas` lists it. */
export interface SchemaPath {
  path: string;
  type: PropertyType;
  /** The value at this path is, or lies inside, an array. */
  array: boolean;
  indexed: boolean;
  unique: boolean;
  readOnly: boolean;
  refObject?: string;
}

/** The API form of an object definition (`GET /schemas/<name>`). */
export interface Schema {
  object: 'schema';
  name: string;
  collection: string;
  label: string;
  custom: boolean;
  properties: PropertyDef[];
  paths: SchemaPath[];
}

/** The definition the shared query parser validates against (system properties are added by it). */
export function schemaDef(schema: Schema): ObjectDef {
  return {
    name: schema.name,
    collection: schema.collection,
    label: schema.label,
    custom: schema.custom,
    properties: schema.properties,
  };
}

export function schemasQuery(orgClient: OrgClient) {
  return queryOptions({
    queryKey: queryKeys.schemas(orgClient.org),
    queryFn: async ({ signal }): Promise<Schema[]> => {
      // GET /schemas is a list like any other (default page 100): ask for the largest page.
      const envelope = await orgClient.get<ListEnvelope<Schema>>('schemas', { signal, query: { limit: 1000 } });
      return envelope.data;
    },
    staleTime: 60_000,
  });
}

export interface NewPropertyRequest {
  name: string;
  type: PropertyType;
  label?: string;
  indexed?: boolean;
  unique?: boolean;
  array?: boolean;
  /** Reference and List: the object referred to. */
  refObject?: string;
  properties?: NewPropertyRequest[];
}

export interface NewObjectRequest {
  name: string;
  label: string;
  properties: NewPropertyRequest[];
}

export function createSchema(orgClient: OrgClient, request: NewObjectRequest): Promise<Schema> {
  return orgClient.post<Schema>('schemas', request);
}

export function addSchemaProperty(orgClient: OrgClient, name: string, property: NewPropertyRequest): Promise<Schema> {
  return orgClient.post<Schema>(`schemas/${encodeURIComponent(name)}/properties`, property);
}

export function deleteSchema(orgClient: OrgClient, name: string): Promise<unknown> {
  return orgClient.request('DELETE', `schemas/${encodeURIComponent(name)}`);
}

/** The org's object types as the shared scope rule reads them (the service builds the same list). */
export function scopeSchemaTypes(schemas: readonly Schema[]): ScopeSchemaType[] {
  return schemas.map((schema) => ({
    name: schema.name,
    collection: schema.collection,
    paths: propertyPaths(schemaDef(schema)).map((p) => p.path),
  }));
}

/** The scope rule's view of the org's schemas, for live chain checks; undefined until loaded. */
export function scopeSchemaQuery(orgClient: OrgClient) {
  return queryOptions({ ...schemasQuery(orgClient), select: scopeSchemaTypes });
}
