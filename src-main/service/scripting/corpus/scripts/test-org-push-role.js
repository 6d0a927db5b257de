// Mirrors: the original's API tests (issue 510): a role pushed onto the org from a script.
const roles = org.push('roles', { name: 'CorpusRole' })
return roles[roles.length - 1].name
