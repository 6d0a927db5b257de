// Mirrors: the original's API tests (CTXAPI-340, "Features - Object Script Policies"): a library whose
// @policy declarations guard its own routes — a Redirect field, a Script policy that answers, refuses
// or changes the body, and a policy that halts the ones after it. (Its Transform policy and its
// response.end() case are left out: transforms are refused here, and the response module has no end().)
const { policy, route, log } = require('decorators')

class RequestPolicies {

  @policy
  static movedPolicy = {
    name: 'c_corpus_moved',
    priority: 1,
    methods: 'get',
    paths: '/routes/corpus-policy-moved',
    action: 'Redirect',
    redirectUrl: '/routes/corpus-policy-target',
    weight: 1
  }

  @log({ traceError: true })
  @route('POST corpus-policy-route', { priority: 1 })
  guarded({ body }) {
    return { text: 'Hi!', ...body() }
  }

  @log({ traceError: true })
  @route('GET corpus-policy-halt', { priority: 1 })
  halted() {
    return 'Hello!'
  }

  @log({ traceResult: true, traceError: true })
  @policy({ methods: ['post'], paths: '/routes/corpus-policy-route', action: 'Script', weight: 1 })
  guardPolicy({ body }) {
    if (body('end')) {
      return 'ended!'
    }
    if (body('end_throw')) {
      throw Fault.create('service.accessDenied.policy', { reason: 'Because!' })
    }
    body('param', 'this is a param from policy')
  }

  @log({ traceResult: true, traceError: true })
  @policy({ methods: ['get'], paths: '/routes/corpus-policy-halt', priority: 1 })
  haltingPolicy({ halt }) {
    return halt()
  }

  @log({ traceResult: true, traceError: true })
  @policy({ methods: ['get'], paths: '/routes/corpus-policy-halt' })
  neverReached() {
    const res = require('response')
    res.setStatusCode(404)
    res.write({ reason: 'the halting policy runs first' })
  }
}

module.exports = RequestPolicies
