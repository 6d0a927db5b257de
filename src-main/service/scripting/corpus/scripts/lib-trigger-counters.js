// Mirrors: the original's API tests (CTXAPI-1565): one handler for several events, counting with counters.
const { trigger } = require('decorators'),
      counters = require('counters')

class CountingTriggers {

  @trigger('create.before', 'update.before', 'delete.before', { object: 'c_conversation' })
  before({ context, event }) {
    counters.next('c_corpus_' + event)
  }

  @trigger('create.after', 'update.after', 'delete.after', { object: 'c_conversation', inline: true })
  after({ context, event }) {
    counters.next('c_corpus_' + event)
  }
}
