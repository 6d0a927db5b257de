// Mirrors: published libraries importing underscore and lodash.
import _ from 'underscore'
const lodash = require('lodash')
return [_.unique([1, 1, 2]), _.isEmpty({}), lodash.get({ a: { b: 3 } }, 'a.b'), lodash.chunk([1, 2, 3], 2)]
