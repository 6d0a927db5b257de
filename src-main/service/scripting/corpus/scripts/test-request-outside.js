// Mirrors: the original's sandbox tests: request outside a request reads nothing.
const req = require('request'), should = require('should')
should.equal(req.getCookie('Cookie'), null)
should.equal(req.getHeader('Accept'), null)
return true
