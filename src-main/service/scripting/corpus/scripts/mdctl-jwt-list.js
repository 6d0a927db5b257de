// Mirrors: github:Medable/mdctl packages/mdctl-sandbox/jwt.js list() (a client's runner script).
const req = require('request')
const key = req.getHeader('service-client-key')
const { accounts } = org.objects
script.exit(accounts.getSubjectTokens(key, script.principal._id))
