// Mirrors: the library the original's require test saves (export c_require_test_module).
module.exports = { foo: function () { return 'bar' } }
