// Mirrors: github:Medable/mdctl packages/mdctl-cli/extras/plugin-tasks (library.c_mdctl.js): routes
// registered with @route that list and run @plugin/@command classes named in a config key.
const { route } = require('decorators'),
      { decorate, isDescriptor } = require('decorator-utils'),
      { array: toArray, rString, isFunction, matchesEnvironment, isSet } = require('util.values'),
      { equalIds } = require('util.id'),
      config = require('config'),
      plugins = new Map(),
      COMMANDS = Symbol('commands')

function parseAcl(list) {
  return toArray(list, !!list).map((entry) => {
    const [type, ...rest] = String(entry).split('.')
    return { type, name: rest.join('.') }
  })
}

function allowed(acl, principal) {
  return acl.some(({ type, name }) => (type === 'role' && principal.hasRole(consts.roles[name])) ||
    (type === 'account' && (principal.email === name || equalIds(principal._id, name))))
}

class Plugins {

  @route('GET mdctl', { acl: 'account.public' })
  static list() {
    this.load()
    return Array.from(plugins.values()).map(p => p.describe(script.principal)).filter(Boolean)
  }

  @route('GET mdctl/:plugin', { acl: 'account.public' })
  static one({ req, next }) {
    this.load(req.params.plugin)
    const plugin = plugins.get(req.params.plugin)
    return (plugin && plugin.describe(script.principal)) || next()
  }

  @route('POST mdctl/:plugin/:command', { acl: 'account.public' })
  static run({ req, body, next }) {
    this.load(req.params.plugin)
    const plugin = plugins.get(req.params.plugin),
          command = plugin && plugin.commands.get(req.params.command)
    if (!command || !allowed(plugin.acl, script.principal) || !allowed(command.acl, script.principal)) {
      return next()
    }
    const target = command.isStatic ? plugin.Class : new plugin.Class()
    return target[command.methodName](...toArray(body()))
  }

  static load(name) {
    const exportsByName = config('c_mdctl_plugins') || {}
    const names = isSet(name) ? [exportsByName[name]] : Object.keys(exportsByName).map(k => exportsByName[k])
    names.filter(Boolean).forEach((exportName) => {
      try { require(exportName) } catch (err) { void err }
    })
  }
}

function plugin(...params) {
  return decorate((Class, args) => {
    const name = rString(args[0])
    const options = args[1] || {}
    if (!name) throw Fault.create('script.invalidArgument.unspecified', { reason: 'A plugin needs a name.' })
    if (!matchesEnvironment(options.environment)) return
    const acl = parseAcl(options.acl || ['role.administrator'])
    const commands = new Map()
    ;(Class[COMMANDS] || []).forEach(({ methodName, isStatic, args: [commandName, commandOptions = {}] }) => {
      if (matchesEnvironment(commandOptions.environment)) {
        commands.set(commandName || methodName, { methodName, isStatic, acl: commandOptions.acl ? parseAcl(commandOptions.acl) : acl })
      }
    })
    plugins.set(name, {
      Class, acl, commands,
      describe(principal) {
        if (!allowed(acl, principal)) return null
        const list = Array.from(commands.entries()).filter(([, c]) => allowed(c.acl, principal)).map(([n]) => ({ name: n }))
        return list.length ? { name, description: options.description || '', commands: list } : null
      }
    })
  }, params)
}

function command(...params) {
  const record = (target, methodName, descriptor, args) => {
    const isStatic = isFunction(target)
    const Class = isStatic ? target : target.constructor
    ;(Class[COMMANDS] || (Class[COMMANDS] = [])).push({ methodName, isStatic, args: toArray(args) })
    return descriptor
  }
  if (isDescriptor(params[params.length - 1])) return record(...params, [])
  return decorate(record, params)
}

module.exports = { plugin, command }
