// Mirrors: the original's API tests (CTXAPI-689): a library of policies guarding two routes, one a
// Script policy on GET, one on POST (the original evaluates their `if` expressions per request).
const { policy } = require('decorators')

class RuntimePolicies {

  @policy({
    methods: ['get'],
    paths: '/routes/c_corpus_policy',
    action: 'Script',
    if: { $not: { $eq: ['$$REQUEST.query.id', { $literal: 1212 }] } }
  })
  static policyGet() {
    throw new Error('Error occurred - Value is different than 1212')
  }

  @policy({ methods: ['post'], paths: '/routes/c_corpus_post', action: 'Script' })
  static policyPost() {
    throw new Error('Date is greater or equal on date limit configured')
  }
}

module.exports = RuntimePolicies
