// Mirrors: the original's API tests (CTXAPI-689): routes declared with a string and with an options object
// (its policies are a library of their own, lib-runtime-policy.js).
const { route } = require('decorators')

class RuntimePolicyObject {

  @route('GET c_corpus_policy', { name: 'c_policy_expression', weight: 1 })
  static getIt({ req, res, body }) {
    return 'The get request was executed!'
  }

  @route({
    weight: 1,
    method: 'POST',
    name: 'c_corpus_post',
    path: 'c_corpus_post',
    acl: ['role.administrator']
  })
  postIt({ req, body }) {
    return `The post! The number is ${body('theNumber')}`
  }
}
