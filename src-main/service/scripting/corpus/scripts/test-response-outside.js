// Mirrors: the original's sandbox tests: the response module outside a route answers false.
const res = require('response'), should = require('should')
should.equal(res.setCookie('Name', 'Value'), false)
should.equal(res.setHeader('Name', 'Value'), false)
should.equal(res.write('Value'), false)
should.equal(res.setStatusCode(200), false)
return true
