// Mirrors: published libraries wrapping errors with Fault.from and faults of their own namespace.
let wrapped
try { org.objects.c_conversations.readOne({ c_title: 'no such title' }).execute() } catch (err) { wrapped = Fault.from(err) }
return [wrapped.errCode, wrapped.code, Fault.create('axon.invalidArgument.validSubject', 'bad subject').errCode]
