// Mirrors: the original's sandbox tests that require each bundled library.
require('bignumber')
require('decimal')
require('moment')
require('moment.timezone')
require('underscore')
require('should')
require('underscore.string')
require('later')
return true
