// Mirrors: the original's "Features - AST transpiler" test source (a decorated Transform).
const { transform, each } = require('decorators-transform')
@transform({ useDecorators: true })
class Transform {
  @each
  each(a, b, c) {
    return 2
  }
}
module.exports = Transform
