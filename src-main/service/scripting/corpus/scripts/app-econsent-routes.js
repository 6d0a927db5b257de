// Mirrors: a published eConsent library (code corpus): @route with an options object, @as, and a
// trigger whose `if` names a constant of another library and reads the cache ($cache). The
// trigger's counter stands in for the original's body, to show when it runs.
import { route, log, trigger, as } from 'decorators'
import LinkedFields from 'c_corpus_linked_fields'

class TemplateRoutes {

  @log({ traceResult: true, traceError: true })
  @route({
    weight: 1,
    method: 'GET',
    authValidation: 'legacy',
    name: 'c_template_preview',
    path: 'template/:templateId/preview'
  })
  static preview({ req }) {
    return { template: req.params.templateId, key: LinkedFields.KEYS.PUBLISH }
  }

  @route({ weight: 1, method: 'GET', name: 'c_template_token', acl: 'role.administrator', path: 'template_token', authValidation: 'all' })
  @as('c_system_user', { principal: { skipAcl: true, grant: 'read' }, safe: false })
  static token() {
    return org.objects.accounts.createAuthToken('c_app', script.principal, { scope: ['object.read'] })
  }

  @trigger('update.before', {
    object: 'c_conversation',
    weight: 1,
    if: { $ne: [{ $cache: { $concat: [LinkedFields.KEYS.PUBLISH, '$ROOT._id'] } }, true] }
  })
  static beforeUpdate() {
    require('counters').next('c_corpus_econsent_before_update')
  }
}

module.exports = TemplateRoutes
