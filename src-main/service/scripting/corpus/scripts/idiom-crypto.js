// Mirrors: published libraries hashing with require('crypto').
const crypto = require('crypto')
return [crypto.createHash('sha256').update('abc').digest('hex'), crypto.createHmac('sha1', 'k').update('v').digest('base64'), crypto.randomBytes(8).toString('hex').length]
