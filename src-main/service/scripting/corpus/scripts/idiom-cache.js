// Mirrors: a published report library caching values with require('cache').
const cache = require('cache')
cache.set('c_corpus_key', { n: 1 }, 60)
return [cache.get('c_corpus_key'), cache.has('c_corpus_missing')]
