// Mirrors: the original's API tests (CTXAPI-489): triggers, a route and a transform in one library (its
// policy field is refused on save here, as lib-runtime-policy.js shows).
const { trigger, route } = require('decorators'),
      { Transform } = require('runtime.transform'),
      { transform } = require('decorators-transform'),
      _ = require('underscore')

class ConversationRuntime {

  @trigger('update.before', { object: 'c_conversation', principal: null, weight: 1 })
  beforeUpdate({ context, body }) {
    context.update('c_title', String(body('c_title')).trim())
  }

  @trigger('create.before', { object: 'c_conversation', principal: null, weight: 1 })
  beforeCreate({ body }) {
    if (body('c_title') === 'Danger') body('c_title', 'Safe')
  }

  @route('POST c_conversations_listed')
  listAll({ req, res, body, runtime }) {
    return org.objects.c_conversations.find().paths('c_title').limit(_.size([1, 2]))
  }
}

@transform('c_conversations_transform', { environment: 'development' })
class ConversationTransform extends Transform {
  each(object) {
    return object
  }
}

module.exports = ConversationRuntime
