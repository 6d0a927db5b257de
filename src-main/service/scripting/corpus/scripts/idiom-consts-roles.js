// Mirrors: published libraries' role checks (consts.roles by name, principal.hasRole).
return {
  admin: script.principal.hasRole(consts.roles.administrator),
  developer: script.principal.hasRole(consts.roles.developer),
  read: consts.accessLevels.read
}
