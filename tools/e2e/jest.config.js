export default { displayName: '@workcell/e2e', preset: '../../jest.preset.js', globalSetup: '<rootDir>/jest.global-setup.js' };
