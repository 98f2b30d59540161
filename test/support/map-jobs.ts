// Scheduler tests need a job store without opening a store: the smallest one that keeps jobs.
import type { Job, JobStore } from '../../src/clock/scheduler.ts';

/** A job store over a Map, for scheduler tests without a Store. */
export class MapJobs implements JobStore {
  readonly map = new Map<string, Job>();
  values() {
    return [...this.map.values()];
  }
  get(id: string) {
    return this.map.get(id);
  }
  put(job: Job) {
    this.map.set(job.id, job);
  }
  delete(id: string) {
    return this.map.delete(id);
  }
  has(id: string) {
    return this.map.has(id);
  }
  get size() {
    return this.map.size;
  }
}
