/**
 * Script-side `Fault` and `consts` (JavaScript evaluated inside the prelude's closure, see
 * prelude.ts). `Fault.create(code, reason | options)` takes the original's forms: a code
 * (`kInvalidArgument` → errCode `service.invalidArgument.unspecified`), an errCode of the service
 * or of the script's own namespace (`app.someError`, `script.invalidArgument.x`), the vendor word
 * (`cortex.`) read as `service.`; options `{reason, message, path, errCode, statusCode}`.
 * A fault thrown out of the script keeps its errCode, code and status (script-faults.ts).
 */
import { FAULT_CATEGORIES } from '../../../../src-shared/faults.js';

export const FAULT_SOURCE =
  String.raw`
  var FAULT_TABLE = ` +
  JSON.stringify(FAULT_CATEGORIES) +
  String.raw`;
  var CATEGORY_OF_CODE = {};
  Object.keys(FAULT_TABLE).forEach(function (k) { CATEGORY_OF_CODE[FAULT_TABLE[k].code] = k; });
  function vendorWord(s) { return s.replace(/^cortex\./, 'service.'); }
  function resolveFault(code, o) {
    var category, errCode;
    var text = typeof code === 'string' ? vendorWord(code) : 'service.error.unspecified';
    if (Object.prototype.hasOwnProperty.call(CATEGORY_OF_CODE, text)) {
      category = CATEGORY_OF_CODE[text];
      errCode = 'service.' + category + '.unspecified';
    } else {
      var parts = text.split('.');
      errCode = text;
      category = Object.prototype.hasOwnProperty.call(FAULT_TABLE, parts[1]) ? parts[1]
        : Object.prototype.hasOwnProperty.call(FAULT_TABLE, parts[0]) ? parts[0] : 'error';
      if (parts[0] === category) errCode = 'service.' + text;
    }
    if (typeof o.errCode === 'string') errCode = vendorWord(o.errCode);
    var entry = FAULT_TABLE[category];
    var status = typeof o.statusCode === 'number' ? o.statusCode : typeof o.status === 'number' ? o.status : entry.status;
    return { code: entry.code, errCode: errCode, status: status, category: category };
  }
  class Fault extends ErrorCtor {
    constructor(code, options) {
      var o = typeof options === 'string' ? { reason: options } : options && typeof options === 'object' ? options : {};
      var r = resolveFault(code, o);
      super(typeof o.message === 'string' ? o.message : typeof o.reason === 'string' ? o.reason : r.errCode);
      this.object = 'fault';
      this.faultName = r.category === 'validation' ? 'validation' : 'error';
      this.code = r.code;
      this.errCode = r.errCode;
      this.status = r.status;
      this.statusCode = r.status;
      if (typeof o.reason === 'string') this.reason = o.reason;
      if (typeof o.path === 'string') this.path = o.path;
      if (o.resource !== undefined) this.resource = o.resource;
    }
    get name() { return 'Fault'; }
    toJSON() {
      var out = { object: 'fault', name: this.faultName, code: this.code, errCode: this.errCode, status: this.status, message: this.message };
      if (this.reason !== undefined) out.reason = this.reason;
      if (this.path !== undefined) out.path = this.path;
      return out;
    }
    static create(code, options) { return new Fault(code, options); }
    static from(err, options) {
      if (err instanceof Fault) return err;
      if (err && typeof err === 'object' && (typeof err.errCode === 'string' || typeof err.code === 'string')) {
        return new Fault(err.errCode || err.code, assign({ reason: err.reason, message: err.message, path: err.path, status: err.status }, options || {}));
      }
      if (err instanceof ErrorCtor) return new Fault('kError', { message: err.message });
      return new Fault('kError', typeof err === 'string' ? { reason: err } : options || {});
    }
    static isFault(err) { return err instanceof Fault || !!(err && err.object === 'fault'); }
  }
  freeze(Fault);
  freeze(Fault.prototype);

  function deepFreeze(o) {
    if (o && typeof o === 'object') { Object.keys(o).forEach(function (k) { deepFreeze(o[k]); }); freeze(o); }
    return o;
  }
  var consts = deepFreeze(ctx.consts || {});
`;
