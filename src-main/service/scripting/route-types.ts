/** A route script as matched: a route record, or a route a library registers with `@route`. */
export interface RouteConfig {
  method: string;
  path: string;
  priority: number;
  acl: string[];
  authValidation?: string;
  apiKey?: string;
  principal?: string;
}

export interface RouteScript {
  _id: string;
  script: string;
  weight: number;
  config: RouteConfig;
  /** Set for a route a library registers with `@route`: `Class.method`. */
  handler?: string;
}
