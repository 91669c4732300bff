/**
 * Vitest setup of the screens project (vite.config.ts): Testing Library's waits (`findBy…`,
 * `waitFor`) give up after 10 s instead of 1 s. The screens render in jsdom in two forks beside the
 * Node suites' server processes on a 2-core machine (docs/testing.md): a render that takes a second
 * there is slow, not wrong. A wait still ends as soon as what it waits for is there.
 */
import { configure } from '@testing-library/react';

configure({ asyncUtilTimeout: 10_000 });
