// Mirrors: the original's sandbox tests on require: bad arguments, a missing library, a library by export.
const should = require('should')
;[undefined, null, 123, [], {}, new Date(), function () {}].forEach((v) => {
  try {
    require(v)
  } catch (err) {
    if (err.message === 'require expects a single string argument') return
    throw err
  }
  throw new Error('a bad module name must be refused')
})
try {
  require('c_not_a_module')
  throw new Error('a missing library must be refused')
} catch (err) {
  if (err.code !== 'kNotFound') throw err
}
should.equal(require('c_scripting_require_test_module').foo(), 'bar')
return true
