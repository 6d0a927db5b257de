// Mirrors: the original's API tests (Cluster - Activity, "activity for current org"): require('api').
require('should')
const api = require('api'),
      activity = api.currentActivity()
activity.requests.length.should.be.a.Number()
activity.scripts.length.should.be.a.Number()
activity.workers.length.should.be.a.Number()
return true
