import { fillPlaceholders, placeholdersOf } from './script-placeholders';

describe('script placeholders', () => {
  it('finds each placeholder once, with spaces inside the braces, and leaves other braces alone', () => {
    expect(placeholdersOf(['--code={{agent.site_code}}', '{{ client.name }}/{{agent.site_code}}', '{{other.x}}', '{{agent.Bad}}'])).toEqual([
      { scope: 'agent', name: 'site_code' },
      { scope: 'client', name: 'name' },
    ]);
  });

  it('fills every occurrence and keeps the rest of the argument', () => {
    const values = new Map([
      ['agent.site_code', 'NYC-1'],
      ['client.name', 'Acme'],
    ]);
    expect(fillPlaceholders(['--code={{agent.site_code}}', '{{ client.name }}/{{agent.site_code}}', '{{other.x}}'], values)).toEqual(['--code=NYC-1', 'Acme/NYC-1', '{{other.x}}']);
  });
});
