// The collection a history item came from (a fabric of a season's collection): its name and the
// fabric's code, linking to the collection's review grid. Nothing for the workflow's own items.
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import type { ApiSchema } from '../../../lib/api/api-types';
import { Field } from './detail-fields';

export function CollectionField({ collection }: { collection: ApiSchema<'CollectionLink'> }) {
  const { t } = useTranslation();
  if (!collection) return null;
  return (
    <Field
      label={t('history.fields.collection')}
      testId="field-collection"
      value={
        <Link to={`/collections/${collection.id}`}>
          {collection.name} · {collection.code}
        </Link>
      }
    />
  );
}
