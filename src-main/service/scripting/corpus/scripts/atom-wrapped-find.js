// Mirrors: "Dev Tools - Get Objects", a route script of the original's Atom dev tools (code corpus).
var request = require('request'),
    options = { skipAcl: true, grant: 7, limit: 1000 }
options.paths = request.query.paths
return require('wrapped')(request.params.element, options).find()
