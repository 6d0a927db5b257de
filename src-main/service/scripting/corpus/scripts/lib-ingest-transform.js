// Mirrors: github:Medable/mdctl packages/mdctl-axon-tools/packageScripts/ingestTransform.js: an
// environment-import Transform using moment, config and Fault with an errCode of its own.
import moment from 'moment'

const { Transform } = require('runtime.transform')
const config = require('config')

module.exports = class extends Transform {

  each(resource, memo) {
    if (resource.object === 'c_study' && memo.study && resource.c_key !== memo.study.c_key) {
      throw Fault.create('kInvalidArgument', {
        errCode: 'service.invalidArgument.updateDisabled',
        reason: 'Study you are importing does not match the study that exists in the target org'
      })
    }
    if (resource.object === 'ec__document_template' && resource.ec__status === 'published') {
      resource.ec__published = moment().format('YYYY-MM-DD')
    }
    return resource
  }

  getAvailableApps() {
    return {
      eConsentConfig: config.get('ec__version.version'),
      televisitConfig: config.get('tv__config.version')
    }
  }

  checkIfAppsAvailable(resource) {
    const empty = (resource.c_privacy_items || []).find(({ c_apps: apps }) => apps && apps.length === 0)
    if (!empty) return true
    throw Fault.create('kInvalidArgument', { reason: `The Study imported has a privacy item called: '${empty.c_label}' without an app assigned, assign an app, export and try again` })
  }
}
