// Mirrors: github:Medable/mdctl packages/mdctl-sandbox/jwt.js clear().
const apiKey = require('request').getHeader('service-client-key')
script.exit(org.objects.accounts.revokeSubjectTokens(apiKey, script.principal._id))
