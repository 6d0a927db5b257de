// Mirrors: the original's API tests reading org.read('runtime') for what libraries registered.
const { routes, triggers, jobs } = org.read('runtime')
return { routes: routes.length > 0, triggers: triggers.length > 0, jobs: jobs.length }
