// Mirrors: ingestTransform.js and the plugin host: config(key) and config.get('key.path').
const config = require('config')
config.set('c_corpus_version', { version: '1.2.3' })
return [config.get('c_corpus_version.version'), config('c_corpus_version').version, config.get('c_corpus_none')]
