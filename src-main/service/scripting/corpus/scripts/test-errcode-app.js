// Mirrors: the original's API tests, "Features - errCode" (CTXAPI-161): a script's own errCode.
throw Fault.create('app.someError', 'my reasons are my own')
