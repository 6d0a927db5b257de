// Mirrors: github:Medable/mdctl packages/mdctl-sandbox/jwt.js revoke(): token (or jti) in script.arguments.
const { accounts } = org.objects
const { token } = script.arguments
script.exit(accounts.revokeAuthToken(token))
