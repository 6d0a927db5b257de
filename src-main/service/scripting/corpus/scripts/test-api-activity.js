// Mirrors: the original's API tests (Cluster - Activity): require('api').
require('should')
const activity = require('api').currentActivity()
activity.requests.length.should.be.a.Number()
return true
