// Mirrors: the original's API tests (Auth Tokens): tokens minted for script.principal with scopes.
const appKey = require('request').getHeader('service-client-key'),
      full = org.objects.accounts.createAuthToken(appKey, script.principal, { scope: ['*'] }),
      limited = org.objects.accounts.createAuthToken(appKey, script.principal, { scope: ['object.read.*', 'script.*'] })
return [full.split('.').length, limited.split('.').length]
