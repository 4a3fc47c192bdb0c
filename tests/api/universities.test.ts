import { describe, expect, it } from 'vitest';
import { setupTestApp } from '../helpers/test-app.ts';

const t = setupTestApp();

type Groups = {
  state: string;
  stateName: string;
  universities: { name: string; domain: string; state: string }[];
}[];
const names = (groups: Groups) => groups.flatMap((g) => g.universities.map((u) => u.name));

describe('GET /api/universities', () => {
  it('lists 20 universities when the query is shorter than two characters', async () => {
    for (const q of ['', 'a']) {
      const body = (await t.get(`/api/universities?q=${q}`)).json();
      expect(body.total).toBe(20);
      expect(names(body.groups)).toHaveLength(20);
    }
  });

  it('finds by name, alias, city and state, grouped by state, at most 50', async () => {
    expect(names((await t.get('/api/universities?q=stanford')).json().groups)[0]).toBe('Stanford University');
    expect(names((await t.get('/api/universities?q=MIT')).json().groups)[0]).toBe(
      'Massachusetts Institute of Technology',
    );
    const city = (await t.get('/api/universities?q=Berkeley')).json();
    expect(names(city.groups)).toContain('University of California-Berkeley');

    const state = (await t.get('/api/universities?q=vermont')).json();
    expect(state.total).toBeGreaterThan(5);
    expect(state.total).toBeLessThanOrEqual(50);
    expect(state.groups[0]).toMatchObject({ state: 'VT', stateName: 'Vermont' });
    for (const group of state.groups as Groups) {
      for (const u of group.universities) expect(u.state).toBe(group.state);
    }
    const many = (await t.get('/api/universities?q=college')).json();
    expect(many.total).toBe(50);
  });

  it('answers an empty list for nonsense, and 400 for an absurdly long query', async () => {
    expect((await t.get('/api/universities?q=zzqqxx')).json()).toEqual({ groups: [], total: 0 });
    const long = await t.get(`/api/universities?q=${'a'.repeat(101)}`);
    expect(long.statusCode).toBe(400);
    expect(long.json().message).toBe('Search text is too long');
  });
});

describe('GET /api/universities/detect', () => {
  it('detects the university from the e-mail domain, subdomains included', async () => {
    const body = (await t.get('/api/universities/detect?email=ada@cs.stanford.edu')).json();
    expect(body.university).toMatchObject({ name: 'Stanford University', domain: 'stanford.edu' });
    const mit = (await t.get('/api/universities/detect?email=tim@mit.edu')).json();
    expect(mit.university).toMatchObject({
      name: 'Massachusetts Institute of Technology',
      domain: 'mit.edu',
    });
  });

  it('says null for a domain it does not know', async () => {
    const body = (await t.get('/api/universities/detect?email=kim@students.example.edu')).json();
    expect(body).toEqual({ university: null, candidates: [] });
  });
});

describe('GET /api/universities/campus/:campus (campus switch)', () => {
  it('names a campus domain in full, as the screens show it', async () => {
    const stanford = await t.get('/api/universities/campus/stanford.edu');
    expect(stanford.statusCode).toBe(200);
    expect(stanford.json()).toEqual({
      campus: 'stanford.edu',
      campusName: 'Stanford University',
      known: true,
    });
    const psu = await t.get('/api/universities/campus/PSU.edu');
    expect(psu.json()).toEqual({
      campus: 'psu.edu',
      campusName: 'Pennsylvania State University',
      known: true,
    });
  });

  it('answers an unknown domain with itself, and 400 for something that is not a domain', async () => {
    expect((await t.get('/api/universities/campus/unknown-college.edu')).json()).toEqual({
      campus: 'unknown-college.edu',
      campusName: 'unknown-college.edu',
      known: false,
    });
    expect((await t.get('/api/universities/campus/not a domain')).statusCode).toBe(400);
    expect((await t.get('/api/universities/campus/all')).statusCode).toBe(400);
  });
});
