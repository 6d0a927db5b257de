// Mirrors: the original's Atom editor plugin (code corpus, getToken): a token minted for the caller's email.
return org.objects.accounts.createAuthToken(
  require('request').getHeader('service-client-key'),
  script.principal.email,
  { scope: ['*'], permanent: true }
)
