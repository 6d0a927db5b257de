// Mirrors: published Axon transforms: `import moment from 'moment'` in a script.
import moment from 'moment'
return [moment.utc('2020-02-28').add(1, 'day').format('YYYY-MM-DD'), moment.isMoment(moment())]
