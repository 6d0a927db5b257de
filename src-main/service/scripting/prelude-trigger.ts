/**
 * The script API of a trigger run (issue 41, triggers/), part of the prelude (prelude.ts): present
 * only when the run's context has `trigger`. As the original's:
 *   script.arguments.new       the record as it will be written (create, update); old (update,
 *                              delete); modified (the paths written); event; dryRun
 *   script.arguments.new.update(path, value) / update({path: value, …}), and plain assignment
 *                              `script.arguments.new.c_x = …`: change the record being written
 *   script.context             the record itself (`_id`, `object`, its properties) with
 *                              update(…) as above, read(path) and isNew()
 *   script.arguments.memo      an object the before and after triggers of one write share
 *                              (triggers/memo.ts): sent back, when changed, as the run ends
 * Changes reach the host one by one (`trigger.update`, checked there, triggers/changes.ts) and are
 * mirrored in `new` and `context`, so later reads in the script see them. Only a before trigger
 * changes its record: the record of an after trigger is written already.
 */
export const TRIGGER_PRELUDE = String.raw`
  if (ctx.trigger) (function (t) {
    var args = ctx.arguments || {};
    var subject = t.subject || {};
    var plainNew = args.new;
    var NOT_INLINE = 'Only a before trigger changes the record it runs for: the record is written already (use org.objects to write it again).';
    function setPath(target, parts, value) {
      if (!target || typeof target !== 'object') return;
      var o = target;
      for (var i = 0; i < parts.length - 1; i++) {
        if (o[parts[i]] === null || typeof o[parts[i]] !== 'object') o[parts[i]] = {};
        o = o[parts[i]];
      }
      o[parts[parts.length - 1]] = value;
    }
    function mirror(path, value) {
      var parts = String(path).replace(/\//g, '.').split('.');
      setPath(subject, parts, value);
      setPath(plainNew, parts, value);
    }
    function update(path, value) {
      if (!t.inline) throw new ErrorCtor(NOT_INLINE);
      if (path !== null && typeof path === 'object' && !isArray(path)) {
        call('trigger.update', null, path);
        for (var k in path) mirror(k, path[k]);
        return;
      }
      call('trigger.update', path, value === undefined ? null : value);
      mirror(path, value === undefined ? null : value);
    }
    function read(path) {
      if (path === undefined || path === null || path === '') return subject;
      var parts = String(path).replace(/\//g, '.').split('.');
      var o = subject;
      for (var i = 0; i < parts.length && o !== undefined && o !== null; i++) o = o[parts[i]];
      return o;
    }
    defineProperty(subject, 'update', { value: update });
    defineProperty(subject, 'read', { value: read });
    defineProperty(subject, 'isNew', { value: function () { return t.op === 'create'; } });
    if (plainNew && typeof plainNew === 'object') {
      defineProperty(plainNew, 'update', { value: update });
      args.new = new Proxy(plainNew, {
        set: function (o, key, value) {
          if (typeof key !== 'string') return false;
          if (t.inline) {
            call('trigger.update', key, value === undefined ? null : value);
            setPath(subject, [key], value);
          }
          o[key] = value;
          return true;
        }
      });
    }
    readOnly('context', subject);
    var memoAtStart = stringify(args.memo);
    atEnd.push(function () {
      if (args.memo === undefined && memoAtStart === undefined) return;
      var now = args.memo === undefined ? undefined : stringify(args.memo);
      if (now !== memoAtStart) call('trigger.memo', args.memo === undefined ? null : args.memo);
    });
  })(ctx.trigger);
`;
