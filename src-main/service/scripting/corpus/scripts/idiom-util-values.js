// Mirrors: library.c_mdctl.js (mdctl) and published apps: util.values and util.id helpers.
const { array: toArray, rString, isSet, rNum } = require('util.values')
const { equalIds, isId } = require('util.id')
return [toArray('a', true), toArray(null, false), rString(5, 'x'), isSet(0), rNum('1', 7),
  equalIds(script.principal._id, script.principal._id.toUpperCase()), isId(script.principal._id)]
