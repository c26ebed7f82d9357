// Shape of a message registry as the service keeps it in code. Served files
// (`/redfish/v1/RegistryStore/...`) and error bodies are both derived from it.

export type MessageSeverity = 'OK' | 'Warning' | 'Critical';
export type ParamType = 'string' | 'number';

export interface MessageDef {
  readonly description: string;
  /** Text with %1, %2 ... placeholders. */
  readonly message: string;
  readonly severity: MessageSeverity;
  readonly paramTypes: readonly ParamType[];
  readonly resolution: string;
}

export interface RegistryDef {
  readonly prefix: string;
  /** Full version, e.g. "1.12.0"; MessageIds use major.minor. */
  readonly version: string;
  readonly name: string;
  readonly description: string;
  readonly owningEntity: string;
  readonly language: 'en';
  readonly messages: Readonly<Record<string, MessageDef>>;
}
