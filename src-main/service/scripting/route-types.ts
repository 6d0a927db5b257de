/** A route script as matched: a route record, or a route a library registers with `@route`. */
export interface RouteConfig {
  method: string;
  path: string;
  priority: number;
  acl: string[];
  authValidation?: string;
  apiKey?: string;
  principal?: string;
  /** The original's option: a form body is read as fields. */
  urlEncoded?: boolean;
}

export interface RouteScript {
  _id: string;
  script: string;
  weight: number;
  config: RouteConfig;
  /** Set for a route a library registers with `@route`: `Class.method`. */
  handler?: string;
}
