// Mirrors: a published Axon library ("Axon - Visits Lib", code corpus): ES imports, @log and @trigger on statics.
import { trigger, log } from 'decorators'
import logger from 'logger'

const { c_conversations } = org.objects

class VisitLibrary {

  @log({ traceError: true })
  @trigger('delete.before', { object: 'c_conversation', weight: 1 })
  static beforeDelete({ context }) {
    return c_conversations.deleteMany({ _id: context._id }).skipAcl().grant(consts.accessLevels.delete).execute()
  }

  @log({ traceError: true })
  @trigger('delete.after', { object: 'c_conversation', weight: 1 })
  static afterDelete({ context }) {
    logger.info('deleted', context._id)
  }

  @log({ traceError: true })
  @trigger('create.after', { object: 'c_conversation', inline: true, weight: 1 })
  static afterCreate({ context }) {
    logger.info('created', context._id)
  }
}

module.exports = VisitLibrary
