// Mirrors: github:Medable/mdctl packages/mdctl-sandbox/jwt.js create(): a permanent * token with the email claim.
const req = require('request')
const { accounts } = org.objects
script.exit(accounts.createAuthToken(req.getHeader('service-client-key'), script.principal._id, {
  permanent: true,
  scope: ['*'],
  includeEmail: true
}))
